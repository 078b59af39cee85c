package io.kvscope.samples.truth;

/** A node, its role and its clock error ({@code clockSkewMs} ahead of true time; negative: behind). */
public record NodeTruth(String node, String deployment, String role, long clockSkewMs, String file) {}
