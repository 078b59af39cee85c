package io.kvscope.model.evidence;

/**
 * One rule of the evidence model, in the manner of a token filter: a name, one job, one reason. A
 * pure function of the response's mechanism facts and the facts about one piece of its text.
 *
 * @param <F> what it judges ({@link PassageFacts}, {@link IdentifierFacts})
 */
public interface EvidenceRule<F> {

  /** Short kebab-case name, as it appears in the evidence. */
  String name();

  Verdict apply(Mechanism mechanism, F facts);
}
