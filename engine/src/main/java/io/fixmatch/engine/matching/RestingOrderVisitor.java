package io.fixmatch.engine.matching;

/** Called for each resting order, best price first and, within a price, in time priority. */
@FunctionalInterface
public interface RestingOrderVisitor {
    /** The view is only valid during the call. */
    void visit(RestingOrderView order);
}
