package io.kvscope.analysis.report;

/**
 * What a tenant notice needs that no log tells: who sends it, the incident's reference, whom to
 * contact, and what was done about it. Unset parts are left as marked blanks in the notice ("to
 * fill in"), never guessed; the remediation, when unset, is the status the report shows (whether
 * a vulnerable configuration was still running at the end of the logs).
 *
 * @param operator the service operator's name, as the customer knows it
 * @param incidentReference the operator's reference for this incident
 * @param contact where the customer can ask (an address, a page)
 * @param remediation what was done, in the operator's words
 */
public record NoticeDetails(String operator, String incidentReference, String contact, String remediation) {

  public static final NoticeDetails NONE = new NoticeDetails(null, null, null, null);

  public NoticeDetails {
    operator = blankToNull(operator);
    incidentReference = blankToNull(incidentReference);
    contact = blankToNull(contact);
    remediation = blankToNull(remediation);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
