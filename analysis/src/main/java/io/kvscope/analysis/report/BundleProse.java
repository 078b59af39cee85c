package io.kvscope.analysis.report;

import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import io.kvscope.analysis.report.TenantBundles.Bundle;
import io.kvscope.analysis.report.TenantBundles.Mishandled;
import io.kvscope.analysis.report.TenantBundles.Range;
import io.kvscope.analysis.report.TenantBundles.RecipientResponse;
import io.kvscope.analysis.report.TenantBundles.VictimRequest;
import io.kvscope.model.identifiers.Identifier;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A tenant's notice in words ({@code notification.md} and {@code .html}, through {@link
 * BundleNotice}): who sends it, what happened in plain words, the tenant's own figures (the
 * report's), what was done, then one line per request. The customer reads plain words, never
 * kvscope's kind names.
 */
final class BundleProse {

  private BundleProse() {}

  /** The notice's words, once for both formats. */
  static void notice(Bundle b, Report report, NoticeDetails details, BundleNotice out) throws IOException {
    out.title("Data exposure notification for ", b.tenant());
    out.paragraph("From " + orBlank(details.operator(), "the operator's name", "--operator") + ". Incident reference "
        + orBlank(details.incidentReference(), "the incident reference", "--incident-ref") + ". Questions: "
        + orBlank(details.contact(), "a contact", "--contact") + ".");
    out.paragraph("Prepared " + ReportView.time(report.generatedAt()) + ". Times are UTC. This notice lists only your own"
        + " requests, one line per request; it names no other customer and holds no text of any request.");
    out.heading("What happened");
    out.paragraph(whatHappened(report));
    out.paragraph(yourFigures(TenantBundles.impact(report, b.tenant())));
    out.heading("What has been done");
    out.paragraph(details.remediation() != null ? details.remediation() : remediation(report));
    out.heading("Your data received by others");
    if (b.asVictim().isEmpty()) {
      out.paragraph("None of your requests' data was found in other customers' responses.");
    } else {
      out.paragraph("Parts of these requests of yours appeared, or possibly appeared, in responses served to other"
          + " customers. Under Exposed, \"yes\" means the logs show it; \"probably\" that the evidence points to"
          + " your request alone but is not conclusive; \"possibly\" that other requests held the same text word for"
          + " word, so the logs cannot show it was yours. \"Data\" names the kinds of personal data recognised in"
          + " what appeared; \"possibly\" there marks kinds found where other requests could also have been the origin.");
      List<List<String>> rows = new ArrayList<>();
      for (VictimRequest v : b.asVictim().values()) {
        rows.add(List.of(v.requestId, v.certain ? "yes" : v.sole ? "probably" : "possibly", ReportView.time(v.firstExposed),
            ReportView.time(v.lastExposed), Long.toString(v.responses()), ReportView.number(v.tokens()),
            howItShowed(v.kinds), categories(v.categories, v.categoriesPossible), describe(TenantBundles.merge(v.ranges))));
      }
      out.table(List.of(BundleNotice.Column.code("Your request"), BundleNotice.Column.text("Exposed"),
          BundleNotice.Column.text("First exposed"),
          BundleNotice.Column.text("Last exposed"), BundleNotice.Column.number("Responses"),
          BundleNotice.Column.number("Tokens"),
          BundleNotice.Column.text("How it showed"), BundleNotice.Column.text("Data"),
          BundleNotice.Column.text("Parts of your text")), rows);
    }
    out.heading("Other data in your responses");
    if (b.asRecipient().isEmpty()) {
      out.paragraph("None of your responses carried other customers' data.");
    } else {
      out.paragraph("These responses you received contained data of other customers. Please delete the marked"
          + " ranges wherever the responses were stored.");
      List<List<String>> rows = new ArrayList<>();
      for (RecipientResponse r : b.asRecipient().values()) {
        rows.add(List.of(r.requestId, ReportView.time(r.time), ReportView.number(r.tokens()), r.confidence.id(),
            whatHappened(r.kinds), categories(r.categories, Set.of()), describe(TenantBundles.merge(r.ranges))));
      }
      out.table(List.of(BundleNotice.Column.code("Your request"), BundleNotice.Column.text("Time"),
          BundleNotice.Column.number("Tokens"), BundleNotice.Column.text("Confidence"),
          BundleNotice.Column.text("What was found"), BundleNotice.Column.text("Data"),
          BundleNotice.Column.text("Ranges of the response")), rows);
    }
    if (!b.affected().isEmpty()) {
      out.heading("Requests that were not processed as sent");
      out.paragraph("The engine answered these requests without reading your full prompt; their replies are unreliable.");
      List<List<String>> rows = new ArrayList<>();
      for (Mishandled m : b.affected().values()) {
        rows.add(List.of(m.requestId, ReportView.time(m.time), whatHappened(m.kinds), m.confidence.id()));
      }
      out.table(List.of(BundleNotice.Column.code("Your request"), BundleNotice.Column.text("Time"),
          BundleNotice.Column.text("What was found"), BundleNotice.Column.text("Confidence")), rows);
    }
    out.end();
  }

  /** A blank the operator must fill in, saying which option fills it. */
  private static String orBlank(String value, String what, String option) {
    return value != null ? value : "[" + what + ": to fill in, or give " + option + "]";
  }

  /** The incident in plain words, the same for every customer. */
  private static String whatHappened(Report report) {
    String when = report.summary().firstExposure() == null ? ""
        : " Between " + ReportView.time(report.summary().firstExposure()) + " and "
            + ReportView.time(report.summary().lastExposure()) + ",";
    return "The servers that run the language model keep recent requests in a shared memory cache to answer faster."
        + when + " a fault in that cache, on servers whose cache was smaller than the longest request they"
        + " accepted, let parts of one customer's requests appear in the replies sent to another customer. This"
        + " notice is based on the service's logs, checked request by request.";
  }

  /** The tenant's figures, exactly those of the incident report's tenant table. */
  private static String yourFigures(TenantImpact t) {
    TenantImpact.AsVictim v = t.asVictim();
    StringBuilder text = new StringBuilder("For you: ");
    if (v.requestsPossible() == 0) {
      text.append("none of your requests appeared in other customers' replies");
    } else {
      boolean ranges = v.requestsPossible() > v.requests() || v.recipientsPossible() > v.recipients()
          || v.tokensPossible() > v.tokens();
      text.append(ReportView.range(v.requests(), v.requestsPossible()))
          .append(" of your requests appeared in ")
          .append(ReportView.range(v.recipients(), v.recipientsPossible()))
          .append(v.recipientsPossible() == 1 ? " reply" : " replies").append(" to other customers (")
          .append(ReportView.range(v.tokens(), v.tokensPossible())).append(" tokens")
          .append(ranges ? "; where two figures are given, the first is what the logs show and the second counts what"
              + " possibly came from you too)" : ")");
    }
    long received = t.asRecipient().responses();
    text.append(received == 0 ? "; none of your replies carried other customers' data."
        : "; " + received + (received == 1 ? " reply" : " replies") + " you received carried other customers' data ("
            + ReportView.number(t.asRecipient().tokens()) + " tokens).");
    return text.toString();
  }

  /** What the logs show of the fix: whether a server still ran an affected configuration at their end. */
  private static String remediation(Report report) {
    List<Window> vulnerable = report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList();
    if (vulnerable.isEmpty()) {
      return "The logs show no server running an affected configuration.";
    }
    if (vulnerable.stream().anyMatch(Window::open)) {
      return "At the end of the logs at least one server still ran an affected configuration; the operator will"
          + " tell you when it has been changed.";
    }
    Instant fixed = vulnerable.stream().map(Window::end).max(Instant::compareTo).orElseThrow();
    return "Every affected server's configuration was changed by " + ReportView.time(fixed) + "; the logs show no"
        + " affected configuration after that.";
  }

  /** What a finding kind means for the customer who owns the request. */
  static String forCustomer(FindingKind kind) {
    return switch (kind) {
      case CROSS_TENANT_OVERLAP -> "text word for word";
      case RARE_IDENTIFIER_LEAK -> "identifiers";
      case CANARY_LEAK -> "a canary marker";
      case OVER_LENGTH_ACCEPTED -> "a prompt longer than the model's limit was accepted";
      case PREFILL_UNDERRUN -> "the server read only part of your prompt";
      default -> kind.label();
    };
  }

  private static String howItShowed(java.util.Collection<FindingKind> kinds) {
    return String.join(", ", kinds.stream().map(BundleProse::forCustomer).toList());
  }

  /** Other customers' data first, then what the engine did with the request. */
  private static String whatHappened(java.util.Collection<FindingKind> kinds) {
    List<String> foreign = kinds.stream().filter(FindingKind::isCrossTenantLeak)
        .map(k -> "another customer's " + forCustomer(k)).toList();
    List<String> engine = kinds.stream().filter(TenantBundles::isMishandling).map(BundleProse::forCustomer).toList();
    List<String> all = new ArrayList<>(foreign);
    all.addAll(engine);
    return String.join("; ", all);
  }

  private static String categories(Set<String> sure, Set<String> possible) {
    List<String> parts = new ArrayList<>();
    sure.forEach(c -> parts.add(Identifier.Category.labelOf(c)));
    possible.forEach(c -> parts.add("possibly " + Identifier.Category.labelOf(c)));
    return parts.isEmpty() ? "none recognised" : String.join(", ", parts);
  }

  private static String describe(List<Range> ranges) {
    if (ranges.isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    for (Range r : ranges) {
      String field = TextSource.PROMPT.equals(r.field()) ? "prompt" : TextSource.RESPONSE.equals(r.field()) ? "response" : "text";
      parts.add(field + " chars " + r.start() + "\u2013" + r.end()
          + (r.copy() == null ? "" : " of its logged copy from " + r.copy()));
    }
    return String.join(", ", parts);
  }
}
