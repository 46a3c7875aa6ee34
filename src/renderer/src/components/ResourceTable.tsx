import type { Resource } from '../stores/resource'
import { failedWithoutData } from '../stores/resource'
import { ErrorState } from './States'
import { Table } from './Table'
import type { TableProps } from './Table'

export type ResourceTableProps<T> = TableProps<T> & {
  /** The load behind the rows: when it failed with nothing to show, its error stands in for the table. */
  resource: Resource<unknown>
  /** Said when it failed with nothing to show. */
  failedTitle: string
  onRetry?: () => void
  compactError?: boolean
}

/** A loaded list as a table: skeleton rows until it arrives, the server's error when it failed with nothing to show. */
export function ResourceTable<T>({
  resource,
  failedTitle,
  onRetry,
  compactError = false,
  ...table
}: ResourceTableProps<T>) {
  if (failedWithoutData(resource))
    return <ErrorState compact={compactError} error={resource.error} title={failedTitle} onRetry={onRetry} />
  return <Table loading {...table} />
}
