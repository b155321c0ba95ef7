package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Which drop-copy sessions receive a copy of which owner's reports: for each owner id, the owner ids of the
 * drop-copy sessions that cover it. Fixed at start (from the configuration), read by the matching thread (to publish
 * each copy to the outbound ring of the drop-copy session's gateway) and by recovery (to re-derive the copies a
 * drop-copy session's store lacks). Every event is copied except the answers to status requests, which report no
 * execution.
 */
public final class DropCopyRoutes {
    public static final DropCopyRoutes NONE = new DropCopyRoutes(Map.of());
    private static final int[] NOBODY = new int[0];

    private final int[][] recipientsByOwner;

    /** @param recipientsByOwner owner id to the owner ids of the drop-copy sessions covering it */
    public DropCopyRoutes(Map<Integer, List<Integer>> recipientsByOwner) {
        int maxOwner = recipientsByOwner.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        this.recipientsByOwner = new int[maxOwner + 1][];
        Arrays.fill(this.recipientsByOwner, NOBODY);
        recipientsByOwner.forEach((owner, recipients) -> {
            if (owner < 1) {
                throw new IllegalArgumentException("owner ids start at 1, was " + owner);
            }
            if (recipients.contains(owner)) {
                throw new IllegalArgumentException("owner " + owner + " would receive copies of its own reports");
            }
            this.recipientsByOwner[owner] = recipients.stream().mapToInt(Integer::intValue).distinct().sorted()
                .toArray();
        });
    }

    /** The owner ids of the drop-copy sessions that get a copy of this event (empty: none). Allocation-free. */
    public int[] recipientsOf(ExecutionEvent event) {
        int owner = event.owner();
        if (!isCopied(event.type()) || owner < 1 || owner >= recipientsByOwner.length) {
            return NOBODY;
        }
        return recipientsByOwner[owner];
    }

    /** Whether reports of this type are copied: not answers to status requests, nor a mass cancel's summary. */
    public static boolean isCopied(EventType type) {
        return type != EventType.STATUS && type != EventType.MASS_STATUS && type != EventType.MASS_CANCEL_REPORT;
    }

    /** The owner ids of the drop-copy sessions covering {@code owner} (empty: none). Allocation-free. */
    public int[] recipientsOfOwner(int owner) {
        return owner < 1 || owner >= recipientsByOwner.length ? NOBODY : recipientsByOwner[owner];
    }

    /** Whether any owner is covered. */
    public boolean isEmpty() {
        for (int[] recipients : recipientsByOwner) {
            if (recipients.length > 0) {
                return false;
            }
        }
        return true;
    }
}
