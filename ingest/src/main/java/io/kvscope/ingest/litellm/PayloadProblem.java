package io.kvscope.ingest.litellm;

/** A line that is JSON but not a usable payload; the message names the field, never its value. */
final class PayloadProblem extends Exception {

  PayloadProblem(String reason) {
    super(reason, null, false, false);
  }
}
