package io.kvscope.analysis.analyzers;

import io.kvscope.model.finding.Finding;

/**
 * Where the findings on a response go, each with the document whose response it is on (a request,
 * or a copy of its reply): {@link ReplyCopyFindings} in the end, through an {@link OverlapLanes}
 * lane's list when recipients are judged on several threads.
 */
interface RecipientFindings {

  void accept(int recipientDoc, Finding finding);
}
