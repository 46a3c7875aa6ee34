import { DomainError } from '../../core/errors/domain-error'

/**
 * The one value sent under several names for the same thing (`storefront`/`storefrontSlug`,
 * `instance_id`/`instanceId`/`machine_id`): the same value twice is fine, two different values
 * are a 400 naming both (docs/api.md section 1), never a silent pick.
 */
export function oneValue(byName: Record<string, string | undefined>, where: string): string | undefined {
  let chosen: { name: string; value: string } | undefined
  for (const [name, value] of Object.entries(byName)) {
    if (value === undefined) continue
    if (chosen === undefined) chosen = { name, value }
    else if (chosen.value !== value) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `"${chosen.name}" and "${name}" name the same value but disagree: send one of them.`,
        {
          details: {
            details: [{ location: where, path: `/${chosen.name}`, problem: `disagrees with "${name}"`, field: name }]
          }
        }
      )
    }
  }
  return chosen?.value
}
