package io.kvscope.spark;

import io.kvscope.model.reach.ReachRule;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The self-join's groups, read from rows sorted by (hash, salt): each recipient of a group meets
 * each of its sources, as the Lucene join walks a term, and the reach rule decides before the pair
 * is counted. One group is in memory at a time; its pair updates stream out ({@link PairStage}).
 */
final class PairGroups implements Iterator<Row> {

  /** What a posting is in its group: a source by its prompt or its response, or a recipient. */
  static final byte PROMPT_SOURCE = FingerprintStage.PROMPT;
  static final byte RESPONSE_SOURCE = FingerprintStage.RESPONSE;
  static final byte RECIPIENT = 2;

  /** The join options a task needs, and the source horizon (JoinOptions itself does not travel). */
  record Rules(boolean ownPromptExplains, boolean includeSameTenant, long horizonMillis)
      implements java.io.Serializable {}

  /** One posting of a fingerprint: its request and tenant, and what the reach rule reads of the request. */
  private record Posting(int request, int tenant, long start, int node, boolean wroteKv) {}

  private final Iterator<Row> sorted;
  private final Rules rules;
  private final ReachRule reach;
  private final PairStage.Counters counters;
  private final ArrayDeque<Row> updates = new ArrayDeque<>();
  private Row pending;

  /**
   * @param sorted rows (hash, salt, role, request, tenant, start, decode_node, wrote_kv), sorted by
   *     hash and salt; role is {@link #PROMPT_SOURCE}, {@link #RESPONSE_SOURCE} or {@link #RECIPIENT}
   */
  PairGroups(Iterator<Row> sorted, Rules rules, ReachRule reach, PairStage.Counters counters) {
    this.sorted = sorted;
    this.rules = rules;
    this.reach = reach;
    this.counters = counters;
    this.pending = sorted.hasNext() ? sorted.next() : null;
  }

  @Override
  public boolean hasNext() {
    while (updates.isEmpty() && pending != null) {
      joinOne();
    }
    return !updates.isEmpty();
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return updates.poll();
  }

  /** The group of {@link #pending}: its recipients against its sources, the updates queued. */
  private void joinOne() {
    long hash = pending.getLong(0);
    int salt = pending.getInt(1);
    List<Posting> recipients = new ArrayList<>();
    List<Posting> prompts = new ArrayList<>();
    List<Posting> responses = new ArrayList<>();
    while (pending != null && pending.getLong(0) == hash && pending.getInt(1) == salt) {
      Posting posting = new Posting(pending.getInt(3), pending.getInt(4), pending.getLong(5), pending.getInt(6),
          pending.getBoolean(7));
      byte role = pending.getByte(2);
      (role == RECIPIENT ? recipients : role == PROMPT_SOURCE ? prompts : responses).add(posting);
      pending = sorted.hasNext() ? sorted.next() : null;
    }
    recipients.sort(Comparator.comparingInt(Posting::request));
    Set<Integer> ownPrompts = new HashSet<>();
    prompts.forEach(p -> ownPrompts.add(p.request()));
    // Called only once the queue is empty (hasNext), so what it holds after are this group's updates.
    for (Posting recipient : recipients) {
      if (rules.ownPromptExplains() && ownPrompts.contains(recipient.request())) {
        continue;
      }
      counters.tests().add(prompts.size() + responses.size());
      for (Posting source : prompts) {
        if (accepts(recipient, source)) {
          updates.add(RowFactory.create(recipient.request(), source.request(), 1, 0));
        }
      }
      for (Posting source : responses) {
        if (accepts(recipient, source)) {
          updates.add(RowFactory.create(recipient.request(), source.request(), 0, 1));
        }
      }
    }
    counters.updates().add(updates.size());
  }

  /** The Lucene join's pair test: never itself, another tenant unless same-tenant pairs are wanted, and the reach. */
  private boolean accepts(Posting recipient, Posting source) {
    if (source.request() == recipient.request()) {
      return false;
    }
    if (!rules.includeSameTenant() && recipient.tenant() == source.tenant()) {
      return false;
    }
    return reach.reaches(source.start(), source.node(), source.wroteKv(), recipient.start(), recipient.node());
  }
}
