/** The link a reseller's customer opens (its page says whether it is valid; opening it claims nothing). */
export function claimLinkOf(apiBaseUrl: string, claimToken: string): string {
  return `${apiBaseUrl}/api/library/claim?claim=${encodeURIComponent(claimToken)}`
}
