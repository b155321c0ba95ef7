package io.fixmatch.engine.matching;

/** Non-empty price levels by (book side, price): an order joining an existing level finds it in O(1). */
final class PriceLevelIndex {
    private final LinearProbingTable<PriceLevel> table;

    PriceLevelIndex(int maxLevels) {
        table = new LinearProbingTable<>(maxLevels, level -> level.indexHash);
    }

    static int hash(int sideId, long price) {
        return Long.hashCode(price * 0x9E3779B97F4A7C15L) * 31 + sideId;
    }

    PriceLevel find(BookSide side, long price) {
        int hash = hash(side.id, price);
        for (int slot = table.home(hash); !table.isEmpty(slot); slot = table.next(slot)) {
            if (table.hashAt(slot) == hash) {
                PriceLevel level = table.at(slot);
                if (level.price == price && level.side == side) {
                    return level;
                }
            }
        }
        return null;
    }

    void add(PriceLevel level) {
        level.indexHash = hash(level.side.id, level.price);
        table.insert(level);
    }

    void remove(PriceLevel level) {
        table.remove(level);
    }
}
