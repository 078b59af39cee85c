package io.kvscope.samples.sim;

import io.kvscope.samples.text.RequestIds;
import io.kvscope.samples.text.TenantVoice;
import io.kvscope.samples.text.TokenText;

/**
 * A customer of the gateway. Mutable only in its identifier counter (each request reserves a
 * block of it) and its open conversations.
 *
 * @param bulk sends the occasional prompt longer than the pool (whole archives, repositories)
 * @param canaryUser plants canary markers in some prompts
 */
public final class Tenant {

  final int index;
  final String id;
  final TenantVoice voice;
  final Channel channel;
  final double weight;
  final boolean bulk;
  final boolean canaryUser;
  final String teamId;
  final String keyAlias;
  final String keyHash;
  final String userId;
  final String clientIp;
  final String otlpService;
  final TokenText systemPrompt;
  /** The key under which the simulation registered {@link #systemPrompt} as a repeated text. */
  int systemPromptKey = -1;
  /** Its canaries are another issuer's ({@link io.kvscope.samples.text.Identifiers#foreignCanary}), not kvscope's. */
  boolean foreignCanary;
  private long nextIdCounter = 1;

  Tenant(int index, String id, TenantVoice voice, Channel channel, double weight, boolean bulk,
      boolean canaryUser, String teamId, String keyAlias, String keyHash, String userId, String clientIp,
      String otlpService, TokenText systemPrompt) {
    this.index = index;
    this.id = id;
    this.voice = voice;
    this.channel = channel;
    this.weight = weight;
    this.bulk = bulk;
    this.canaryUser = canaryUser;
    this.teamId = teamId;
    this.keyAlias = keyAlias;
    this.keyHash = keyHash;
    this.userId = userId;
    this.clientIp = clientIp;
    this.otlpService = otlpService;
    this.systemPrompt = systemPrompt;
  }

  /** Reserves a block of identifier counter values for one request. */
  long reserveIds() {
    long base = nextIdCounter;
    nextIdCounter += RequestIds.BLOCK;
    return base;
  }

  public String id() {
    return id;
  }

  public Channel channel() {
    return channel;
  }

  public String teamId() {
    return teamId;
  }

  public String keyAlias() {
    return keyAlias;
  }

  public String keyHash() {
    return keyHash;
  }

  public String userId() {
    return userId;
  }

  public String clientIp() {
    return clientIp;
  }

  public String otlpService() {
    return otlpService;
  }
}
