package io.kvscope.samples.text;

/**
 * What a tenant's prose talks about: its company name, mail domain, industry vocabulary, project
 * codenames and its tenant-wide secrets.
 *
 * @param index the tenant's ordinal; part of every request-unique identifier
 * @param countryCode phone country code of the tenant's customers
 */
public record TenantVoice(
    int index,
    String[] companyWords,
    String domain,
    String[] industryNouns,
    String[] codenames,
    String apiKey,
    String iban,
    String companyEmail,
    int countryCode,
    String homeCity) {}
