/** A WAL past this size is cut back to it at the next checkpoint (`journal_size_limit`): a burst leaves no large WAL behind. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024
