/**
 * Rare identifiers in prompts and responses (emails, phone numbers, API-key-like tokens, IBANs,
 * account numbers, UUIDs) and canary markers. They are extracted at index time into keyword fields
 * ({@code ident_prompt}, {@code ident_response}) so that the rare-identifier and canary analyses
 * are one walk over those terms: an identifier in a response, absent from its own prompt, present
 * in another tenant's earlier request, is evidence of a leak even when no long span is shared.
 */
package io.kvscope.model.identifiers;
