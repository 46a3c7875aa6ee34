import { useCallback, useEffect, useRef, useState } from 'react'

import { Toasts } from '../components/Toasts'
import { useRoute } from '../navigation/router'
import { screenInfo } from '../navigation/routes'
import { useConnection } from '../stores/connection'
import { useDevelopers } from '../stores/developers'
import { ActingDeveloper } from './ActingDeveloper'
import { ConnectionBanner } from './ConnectionBanner'
import { FindAnything } from './FindAnything'
import { Navigation } from './Navigation'
import { ScreenView } from './ScreenView'
import { watchServer } from './server-watch'
import { useShortcuts } from './shortcuts'
import { StatusBar, useConditions } from './StatusBar'

/** The frame around every screen: navigation, title bar with the acting developer, the screen. */
export function Shell() {
  const route = useRoute()
  const info = screenInfo(route.screen)
  const heading = useRef<HTMLHeadingElement>(null)
  const main = useRef<HTMLElement>(null)
  const dataVersion = useConnection((state) => state.dataVersion)
  const loadDevelopers = useDevelopers((state) => state.load)
  const firstRender = useRef(true)
  const conditions = useConditions()
  const [finding, setFinding] = useState(false)
  useShortcuts(useCallback(() => setFinding(true), []))

  // Another connection (a new admin token) gets its own change feed.
  const api = useConnection((state) => state.api)
  useEffect(() => watchServer(), [api])

  useEffect(() => {
    void loadDevelopers()
  }, [loadDevelopers, dataVersion])

  // The tab (and desktop window) title: where we are, and a moved clock or active faults.
  useEffect(() => {
    document.title = [info.label, conditions.forwarding, conditions.clock, conditions.faults, 'Plugin License Emulator']
      .filter(Boolean)
      .join(' · ')
  }, [info.label, conditions.forwarding, conditions.clock, conditions.faults])

  // A new screen: move focus to its title (not on first load).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    heading.current?.focus({ preventScroll: true })
    main.current?.scrollTo?.({ top: 0 })
  }, [route.screen, info.label])

  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => heading.current?.focus()}>
        Skip to content
      </button>
      <Navigation current={route.screen} />
      <div className="main-column">
        <ConnectionBanner />
        <header className="topbar">
          <div className="topbar__titles">
            <h1 className="topbar__title" tabIndex={-1} ref={heading}>
              {info.label}
            </h1>
            <p className="topbar__description">{info.description}</p>
          </div>
          <ActingDeveloper />
        </header>
        <main className="content" ref={main} id="main">
          <ScreenView route={route} />
        </main>
        <StatusBar />
      </div>
      <Toasts />
      <FindAnything open={finding} onClose={() => setFinding(false)} />
    </div>
  )
}
