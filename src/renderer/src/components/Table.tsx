import { useMemo, useRef, useState } from 'react'
import type { CSSProperties, KeyboardEvent, MouseEvent, ReactNode, RefObject } from 'react'

import { Skeleton } from './Skeleton'
import { useScrolls } from './use-scroll-focus'

export interface Column<T> {
  key: string
  header: ReactNode
  render: (row: T) => ReactNode
  /** Fixed widths keep the skeleton and the loaded table the same size. */
  width?: CSSProperties['width']
  align?: 'left' | 'right' | 'center'
  /** Width of the cell's skeleton bar. */
  skeletonWidth?: CSSProperties['width']
  /** Makes the column sortable: the value its rows are ordered by (text compares as words, numbers as numbers). */
  sortValue?: (row: T) => string | number | null
}

export interface TableProps<T> {
  columns: Column<T>[]
  rows: T[] | null
  rowKey: (row: T) => string | number
  /** Label for assistive technology. */
  caption: string
  loading?: boolean
  skeletonRows?: number
  empty?: ReactNode
  selectedKey?: string | number | null
  /** Makes rows selectable by mouse; keyboard users use a button inside the row. */
  onRowClick?: (row: T, event: MouseEvent<HTMLTableRowElement>) => void
  onRowKeyDown?: (event: KeyboardEvent<HTMLTableRowElement>, row: T) => void
  rowTestId?: (row: T) => string
  rowClassName?: (row: T) => string | undefined
  dense?: boolean
  stickyHeader?: boolean
  /** A window of a longer list: the height of the rows left out above and below `rows` (virtualised lists). */
  omittedHeight?: { before: number; after: number }
  /** The element that scrolls the rows (the table's wrapper), for a virtualised list to follow. */
  scrollRef?: RefObject<HTMLDivElement | null>
  /**
   * The sort held by the caller, which orders the rows itself (a virtualised list sorts all of its
   * rows, not the window it hands over). Without it the table sorts `rows`.
   */
  sorting?: { sort: TableSort | null; onSort: (sort: TableSort) => void }
}

export interface TableSort {
  key: string
  direction: 'ascending' | 'descending'
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** A column header that sorts by it: first ascending, then the other way on each click. */
export function SortButton({
  column,
  sort,
  onSort,
  children
}: {
  column: string
  sort: TableSort | null
  onSort: (sort: TableSort) => void
  children: ReactNode
}) {
  return (
    <button
      type="button"
      className="table__sort"
      onClick={() =>
        onSort(
          sort?.key === column
            ? { key: column, direction: sort.direction === 'ascending' ? 'descending' : 'ascending' }
            : { key: column, direction: 'ascending' }
        )
      }
    >
      {children}
      <span className="table__sort-mark" aria-hidden="true">
        {sort?.key === column ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
      </span>
    </button>
  )
}

/** Rows ordered by a column's value: text as words, numbers as numbers, empty values last. */
export function sortRows<T>(
  rows: readonly T[],
  value: (row: T) => string | number | null,
  direction: TableSort['direction']
): T[] {
  const factor = direction === 'ascending' ? 1 : -1
  return [...rows].sort((a, b) => {
    const left = value(a)
    const right = value(b)
    if (left === right) return 0
    if (left === null) return 1
    if (right === null) return -1
    return (
      (typeof left === 'number' && typeof right === 'number'
        ? left - right
        : collator.compare(String(left), String(right))) * factor
    )
  })
}

export function Table<T>({
  columns,
  rows,
  rowKey,
  caption,
  loading = false,
  skeletonRows = 5,
  empty,
  selectedKey,
  onRowClick,
  onRowKeyDown,
  rowTestId,
  rowClassName,
  dense = false,
  stickyHeader = false,
  omittedHeight,
  scrollRef,
  sorting
}: TableProps<T>) {
  const showSkeleton = rows === null && loading
  const [ownSort, setOwnSort] = useState<TableSort | null>(null)
  const sort = sorting ? sorting.sort : ownSort
  const setSort = sorting ? sorting.onSort : setOwnSort
  const sortColumn = sort ? columns.find((column) => column.key === sort.key && column.sortValue) : undefined
  const sortedRows = useMemo(() => {
    if (!rows || !sortColumn?.sortValue || !sort || sorting) return rows
    return sortRows(rows, sortColumn.sortValue, sort.direction)
  }, [rows, sortColumn, sort, sorting])
  const ownRef = useRef<HTMLDivElement>(null)
  const wrapRef = scrollRef ?? ownRef
  const scrolls = useScrolls(wrapRef)
  return (
    // Focusable and named only while it scrolls: then the keyboard must reach it; otherwise it is no extra tab stop.
    <div
      className={`table-wrap ${stickyHeader ? 'table-wrap--sticky' : ''}`}
      tabIndex={scrolls ? 0 : undefined}
      role={scrolls ? 'region' : undefined}
      aria-label={scrolls ? caption : undefined}
      ref={wrapRef}
    >
      <table
        className={`table ${dense ? 'table--dense' : ''} ${onRowClick ? 'table--interactive' : ''}`}
        aria-busy={showSkeleton || undefined}
      >
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>
          {columns.map((column) => (
            <col key={column.key} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                style={{ textAlign: column.align ?? 'left' }}
                aria-sort={sort?.key === column.key && column.sortValue ? sort.direction : undefined}
              >
                {column.sortValue ? (
                  <SortButton column={column.key} sort={sort} onSort={setSort}>
                    {column.header}
                  </SortButton>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {omittedHeight && omittedHeight.before > 0 ? (
            <tr className="table__spacer" aria-hidden="true">
              <td colSpan={columns.length} style={{ height: omittedHeight.before }} />
            </tr>
          ) : null}
          {showSkeleton
            ? Array.from({ length: skeletonRows }, (_, index) => (
                <tr key={`skeleton-${index}`} aria-hidden="true">
                  {columns.map((column) => (
                    <td key={column.key}>
                      <Skeleton width={column.skeletonWidth ?? '70%'} height="0.9em" />
                    </td>
                  ))}
                </tr>
              ))
            : (sortedRows ?? []).map((row) => {
                const key = rowKey(row)
                const selected = selectedKey !== undefined && selectedKey !== null && selectedKey === key
                return (
                  <tr
                    key={key}
                    className={[selected ? 'is-selected' : '', rowClassName?.(row) ?? ''].join(' ').trim() || undefined}
                    aria-selected={onRowClick ? selected : undefined}
                    onClick={onRowClick ? (event) => onRowClick(row, event) : undefined}
                    onKeyDown={onRowKeyDown ? (event) => onRowKeyDown(event, row) : undefined}
                    data-testid={rowTestId?.(row)}
                  >
                    {columns.map((column) => (
                      <td key={column.key} style={column.align ? { textAlign: column.align } : undefined}>
                        {column.render(row)}
                      </td>
                    ))}
                  </tr>
                )
              })}
          {omittedHeight && omittedHeight.after > 0 ? (
            <tr className="table__spacer" aria-hidden="true">
              <td colSpan={columns.length} style={{ height: omittedHeight.after }} />
            </tr>
          ) : null}
        </tbody>
      </table>
      {!showSkeleton && rows !== null && rows.length === 0 && empty ? <div className="table-empty">{empty}</div> : null}
    </div>
  )
}
