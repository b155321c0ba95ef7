package io.fixmatch.fix.session;

/**
 * The one thread allowed to touch a piece of state (a session and its store belong to one gateway thread). Checked
 * with {@code assert owner.isCurrentThread()} at every entry point: free in production, enforced wherever
 * assertions are on (every test run), so a call from a wrong thread fails loudly instead of racing.
 */
public final class ThreadOwner {
    private volatile Thread owner;

    /** The calling thread becomes the owner (a gateway thread, when it takes its sessions over). */
    public void claim() {
        owner = Thread.currentThread();
    }

    /** Whether the calling thread is the owner; false while no thread has claimed the state. */
    public boolean isCurrentThread() {
        return owner == Thread.currentThread();
    }

    /** For assertion messages. */
    public String describe() {
        Thread thread = owner;
        return "owned by " + (thread == null ? "no thread" : thread.getName()) + ", called from "
            + Thread.currentThread().getName();
    }
}
