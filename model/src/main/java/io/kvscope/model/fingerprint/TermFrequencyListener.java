package io.kvscope.model.fingerprint;

/**
 * Told, for each response fingerprint shared by at least two live documents, how many distinct
 * documents and tenants carry it (in a prompt or a response). Used to learn where boilerplate
 * starts: shared system prompts and stock phrases reach many tenants, leaks reach a few.
 */
@FunctionalInterface
public interface TermFrequencyListener {

  TermFrequencyListener NONE = (docFrequency, tenantFrequency) -> {};

  /**
   * @param docFrequency distinct live documents with the fingerprint (at least 2)
   * @param tenantFrequency distinct tenants among them; each document of unknown tenant counts as
   *     a tenant of its own
   */
  void onSharedTerm(int docFrequency, int tenantFrequency);
}
