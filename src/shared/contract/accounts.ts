/** What a developer account can be: an admin sees and manages every product. */
export const DEVELOPER_ROLES = ['developer', 'admin'] as const
export type DeveloperRole = (typeof DEVELOPER_ROLES)[number]
