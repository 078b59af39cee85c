package io.kvscope.cli;

import io.kvscope.analysis.report.NoticeDetails;
import picocli.CommandLine.Option;

/** What the tenant notices say of who sends them and what was done: no log tells it. */
final class NoticeOptions {

  @Option(names = "--operator", paramLabel = "NAME", description = "Your organisation's name, as the tenant notices sign it.")
  String operator;

  @Option(names = "--incident-ref", paramLabel = "REF", description = "Your reference for this incident, quoted in every notice.")
  String incidentReference;

  @Option(names = "--contact", paramLabel = "WHERE", description = "Where customers may ask (an address or a page), in every notice.")
  String contact;

  @Option(names = "--remediation", paramLabel = "TEXT",
      description = "What was done, in your words, for the notices (default: what the logs show of the fix).")
  String remediation;

  NoticeDetails toDetails() {
    return new NoticeDetails(operator, incidentReference, contact, remediation);
  }
}
