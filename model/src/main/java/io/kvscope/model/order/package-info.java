/**
 * One order for everything bounded. A cap ("at most N samples", "the best N candidates") that keeps
 * whatever came first makes the report depend on the order files were read in: two responders who
 * ingest the same evidence in another order, or two engines, would get different reports. Every cap
 * and tie-break here orders by a stated key of the request itself.
 *
 * <ul>
 *   <li>{@link io.kvscope.model.order.RequestOrder}: requests by (start on the gateway's clock,
 *       request id), unknown starts first.
 *   <li>{@link io.kvscope.model.order.StableSample}: a bounded sample that keeps the items whose
 *       request ids hash lowest (bottom-k), so it is the same sample whatever order the items
 *       arrive in, and spread over the whole time range rather than its beginning.
 * </ul>
 */
package io.kvscope.model.order;
