/**
 * How a stored text is shown next to its shared spans, as a list of
 * {@link io.kvscope.gui.text.Piece}s: plain text, marked spans, elisions of long stretches, and,
 * while content is not revealed, masks that keep each stretch's place and length (and a span's hash,
 * equal on both sides of a verbatim match) without any of its characters. Pure functions: the views
 * only draw the pieces.
 */
package io.kvscope.gui.text;
