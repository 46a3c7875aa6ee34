import { useId, useRef } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'

export interface TabItem {
  id: string
  label: ReactNode
  count?: number
}

/** Tabs with arrow-key movement (roving tabindex); the caller renders the selected panel inside. */
export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
  children
}: {
  tabs: TabItem[]
  selected: string
  onSelect: (id: string) => void
  label: string
  children: ReactNode
}) {
  const base = useId()
  const list = useRef<HTMLDivElement>(null)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected)
    let next = -1
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = tabs.length - 1
    if (next < 0) return
    event.preventDefault()
    const tab = tabs[next]
    if (!tab) return
    onSelect(tab.id)
    list.current?.querySelector<HTMLButtonElement>(`[data-tab="${tab.id}"]`)?.focus()
  }
  return (
    <div className="tabs">
      <div className="tabs__list" role="tablist" aria-label={label} ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const active = tab.id === selected
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.id}`}
              aria-controls={`${base}-panel`}
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              className="tabs__tab"
              data-tab={tab.id}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
              {tab.count !== undefined ? <span className="tabs__count">{tab.count}</span> : null}
            </button>
          )
        })}
      </div>
      <div className="tabs__panel" role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`}>
        {children}
      </div>
    </div>
  )
}
