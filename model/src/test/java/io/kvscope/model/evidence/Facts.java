package io.kvscope.model.evidence;

import java.util.ArrayList;
import java.util.List;

/** Small exact cases for the rule tests: holders, mechanisms and passages by hand. */
final class Facts {

  static final int T = 16;
  static final int PUBLIC = 4;

  private Facts() {}

  /** A holder of {@code tenant} on the recipient's node and engine run, released at {@code end}. */
  static Holder holder(String id, String tenant, long end, boolean inReply) {
    return new Holder(id.hashCode() & 0xffff, id, tenant, end - 1_000, end, true, true, inReply);
  }

  static Mechanism stub() {
    return new Mechanism(true, List.of("over-length prompt accepted", "prefill underrun"), List.of(), Observation.SERVED_NORMALLY);
  }

  static Mechanism transferFailure() {
    return new Mechanism(false, List.of("KV transfer or bootstrap failure"), List.of(), Observation.SERVED_NORMALLY);
  }

  /** No mechanism evidence, and no engine log names the request: the logs could not show how it was served. */
  static Mechanism served() {
    return Mechanism.none();
  }

  /** No mechanism evidence, and the engine logs show the response served normally. */
  static Mechanism servedNormally() {
    return Mechanism.normalService();
  }

  /** A passage builder starting from: 40 words, one other tenant's request holds it, nothing explains it. */
  static Passage passage() {
    return new Passage();
  }

  static final class Passage {
    int words = 40;
    List<Holder> candidates = new ArrayList<>(List.of(holder("gw-victim", "victim", 10_000, false)));
    int tenantsInIndex = 1;
    boolean ownPrompt;
    boolean sameQuestion;
    boolean stock;

    Passage words(int n) {
      words = n;
      return this;
    }

    Passage held(Holder... holders) {
      candidates = new ArrayList<>(List.of(holders));
      return this;
    }

    Passage tenants(int n) {
      tenantsInIndex = n;
      return this;
    }

    Passage ownPrompt() {
      ownPrompt = true;
      return this;
    }

    Passage sameQuestion() {
      sameQuestion = true;
      return this;
    }

    Passage stock() {
      stock = true;
      return this;
    }

    PassageFacts facts() {
      return new PassageFacts(words, "recipient", candidates, tenantsInIndex, ownPrompt, sameQuestion, stock);
    }
  }
}
