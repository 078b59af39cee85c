/**
 * Which engine lines belong to which request, as rules over plain values
 * ({@link io.kvscope.model.join.RoomRule}): the index and the Spark job gather a request's lines
 * their own way and ask the same rule which of them to join.
 */
package io.kvscope.model.join;
