package io.kvscope.index.store;

import java.io.IOException;

/**
 * An existing index another kvscope built in a way this one cannot add to (another fingerprint
 * scheme, length norms on its texts). It is left as it was and can still be searched and analyzed,
 * unless its text fields hold another tokenizer's words; new evidence goes into a new index.
 */
public final class IncompatibleIndexException extends IOException {

  IncompatibleIndexException(String message) {
    super(message);
  }
}
