package io.kvscope.gui.view;

/**
 * One line of the evidence view's facts table: a fact about the recipient and about the source.
 *
 * @param warning true when the recipient's value is a red flag (pool below context, a rejected
 *     prompt that was served, a prefill of one token)
 */
public record FactRow(String fact, String recipient, String source, boolean warning) {}
