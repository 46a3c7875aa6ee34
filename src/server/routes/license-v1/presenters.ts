import type { LicenseStanding } from '../../../core/licensing/licensing-service'

/** An activation as the licensing service reports it. */
type Activation = NonNullable<LicenseStanding['activation']>

/** Licensing payloads use the service's snake_case keys (docs/api.md section 5). */
export function licenseView(standing: LicenseStanding) {
  const { license } = standing
  return {
    id: license.id,
    license_key: license.key,
    product_id: license.productId,
    kind: license.kind,
    status: license.status,
    expires_at: standing.licenseExpiresAt,
    max_activations: license.maxActivations,
    activation_count: standing.activationCount,
    activations_remaining: Math.max(0, license.maxActivations - standing.activationCount),
    subscription_status: standing.subscription?.state ?? null,
    grace_until: standing.subscription?.graceUntil ?? null
  }
}

export function activationView(activation: Activation) {
  return {
    id: activation.id,
    instance_id: activation.instanceId,
    instance_name: activation.instanceName,
    platform: activation.platform,
    app_version: activation.appVersion,
    first_seen_at: activation.firstSeenAt,
    last_seen_at: activation.lastSeenAt,
    deactivated_at: activation.deactivatedAt
  }
}
