/**
 * Synthetic language for the generator. A token is a word, number, identifier or punctuation mark
 * with its leading whitespace ({@link io.kvscope.samples.text.TokenText}), so a span of tokens is a
 * verbatim substring and a page of KV cache maps back to exact text. Prose comes from sentence
 * {@link io.kvscope.samples.text.Template}s filled by a {@link io.kvscope.samples.text.Voice}:
 * tenant prose carries the tenant's vocabulary, secrets and request-unique identifiers; public
 * text ({@link io.kvscope.samples.text.SharedTexts}) is what many tenants legitimately share.
 * Word-level tokens average about 5.5 characters each, spaces included.
 */
package io.kvscope.samples.text;
