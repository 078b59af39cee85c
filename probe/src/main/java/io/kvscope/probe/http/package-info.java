/**
 * The probe's only way onto the network: the JDK's HTTP client behind
 * {@link io.kvscope.probe.http.ProbeHttp}, with a connect timeout, one deadline per request that
 * covers a streamed body, size caps, and server-sent events handed over one payload at a time so
 * the time to the first token is measured where it arrives.
 */
package io.kvscope.probe.http;
