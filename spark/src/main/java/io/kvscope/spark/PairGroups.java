package io.kvscope.spark;

import io.kvscope.model.reach.ReachRule;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The self-join's groups, one a row: a fingerprint's postings as {@code frequencies/} sorted them,
 * and which of its salts the group is. Each recipient of the group meets each holder, as the Lucene
 * join walks a term, and the reach rule decides before the pair is counted. One group is in memory
 * at a time; its pair updates stream out ({@link PairStage}).
 */
final class PairGroups implements Iterator<Row> {

  /** The join options a task needs, and the source horizon (JoinOptions itself does not travel). */
  record Rules(boolean ownPromptExplains, boolean includeSameTenant, long horizonMillis)
      implements java.io.Serializable {}

  private final Iterator<Row> groups;
  private final Rules rules;
  private final ReachRule reach;
  private final ReachStage.Columns requests;
  private final PairStage.Counters counters;
  private final ArrayDeque<Row> updates = new ArrayDeque<>();

  /**
   * @param groups rows (hash, salt, salts, postings): the postings ({@link PostingCounts#posting()})
   *     sorted, so a request's prompt comes right before its response
   * @param requests what the reach rule reads of each request, by ordinal
   */
  PairGroups(Iterator<Row> groups, Rules rules, ReachRule reach, ReachStage.Columns requests,
      PairStage.Counters counters) {
    this.groups = groups;
    this.rules = rules;
    this.reach = reach;
    this.requests = requests;
    this.counters = counters;
  }

  @Override
  public boolean hasNext() {
    while (updates.isEmpty() && groups.hasNext()) {
      joinOne(groups.next());
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

  /**
   * The group's recipients (the responses whose ordinal falls to its salt) against every holder, the
   * updates queued. Called only once the queue is empty (hasNext), so what it holds after are this
   * group's.
   */
  private void joinOne(Row group) {
    int salt = group.getInt(1);
    int salts = group.getInt(2);
    List<Long> boxed = group.getList(3);
    long[] postings = new long[boxed.size()];
    for (int i = 0; i < postings.length; i++) {
      postings[i] = boxed.get(i);
    }
    for (int r = 0; r < postings.length; r++) {
      long recipient = postings[r];
      int request = PostingCounts.request(recipient);
      if (PostingCounts.side(recipient) != FingerprintStage.RESPONSE || request % salts != salt
          || rules.ownPromptExplains() && r > 0 && PostingCounts.request(postings[r - 1]) == request) {
        continue;
      }
      counters.tests().add(postings.length);
      for (long source : postings) {
        if (accepts(recipient, source)) {
          boolean viaPrompt = PostingCounts.side(source) == FingerprintStage.PROMPT;
          updates.add(RowFactory.create(request, PostingCounts.request(source), viaPrompt ? 1 : 0, viaPrompt ? 0 : 1));
        }
      }
    }
    counters.updates().add(updates.size());
  }

  /** The Lucene join's pair test: never itself, another tenant unless same-tenant pairs are wanted, and the reach. */
  private boolean accepts(long recipient, long source) {
    int to = PostingCounts.request(recipient);
    int from = PostingCounts.request(source);
    if (from == to) {
      return false;
    }
    if (!rules.includeSameTenant() && PostingCounts.tenant(recipient) == PostingCounts.tenant(source)) {
      return false;
    }
    return reach.reaches(requests.start()[from], requests.decodeNode()[from], requests.wroteKv()[from],
        requests.start()[to], requests.decodeNode()[to]);
  }
}
