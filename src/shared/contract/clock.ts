/** How far the emulator clock may be moved either way: far enough for any expiry test, near enough to stay a valid date. */
export const MAX_CLOCK_OFFSET_S = 100 * 365 * 24 * 60 * 60
