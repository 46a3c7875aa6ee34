import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

import { importsOf, RULES, sourceFiles, violationsOf } from '../support/architecture'
import type { RuleName, SourceFile } from '../support/architecture'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** For each rule: a file that breaks it and a near twin that keeps it. */
const FIXTURES: Record<RuleName, { breaks: SourceFile[]; keeps: SourceFile[] }> = {
  'core-has-no-transport': {
    breaks: [
      {
        path: 'src/core/licensing/probe.ts',
        text: "import { errorHandling } from '../../server/plugins/error-handling'\n"
      },
      { path: 'src/core/licensing/probe.ts', text: "import type { FastifyRequest } from 'fastify'\n" },
      { path: 'src/core/licensing/probe.ts', text: "import { request } from 'node:http'\n" },
      { path: 'src/core/licensing/probe.ts', text: "const ipc = await import('electron')\n" },
      {
        path: 'src/core/licensing/probe.ts',
        text: "export { useProducts } from '../../renderer/src/stores/products'\n"
      }
    ],
    keeps: [
      {
        path: 'src/core/licensing/probe.ts',
        text: "import { createHash } from 'node:crypto'\nimport { LICENSE_KINDS } from '../../shared/contract/licensing'\n"
      }
    ]
  },
  'sql-in-repositories': {
    breaks: [
      {
        path: 'src/core/licensing/license-admin.ts',
        text: "const byKey = store.db.prepare('SELECT * FROM licenses WHERE license_key = ?')\n"
      },
      { path: 'src/core/scenarios/state-import.ts', text: "store.db.pragma('defer_foreign_keys = ON')\n" },
      { path: 'src/server/routes/probe.ts', text: "db.exec('DELETE FROM licenses')\n" },
      { path: 'src/cli/probe.ts', text: "lock.exec('BEGIN EXCLUSIVE')\n" }
    ],
    keeps: [
      {
        path: 'src/core/licensing/license-repository.ts',
        text: "const byKey = store.db.prepare('SELECT * FROM licenses WHERE license_key = ?')\n"
      },
      { path: 'src/core/store/migrate.ts', text: "db.pragma('user_version = 3')\n" },
      { path: 'src/core/inspector/request-filter.ts', text: 'const exact = /^(\\d{1,3})$/.exec(value)\n' }
    ]
  },
  'routes-use-services': {
    breaks: [
      {
        path: 'src/server/routes/control-plane/products.ts',
        text: "import { createProductRepository } from '../../../core/products/product-repository'\n"
      },
      {
        path: 'src/server/routes/license-v1/presenters.ts',
        text: "import type { Activation } from '../../../core/licensing/license-repository'\n"
      }
    ],
    keeps: [
      {
        path: 'src/server/routes/control-plane/products.ts',
        text: "import type { ProductService } from '../../../core/products/products'\n"
      }
    ]
  },
  'shared-stands-alone': {
    breaks: [
      { path: 'src/shared/schemas/probe.ts', text: "import { DomainError } from '../../core/errors/domain-error'\n" },
      { path: 'src/shared/contract/probe.ts', text: "import { readFileSync } from 'node:fs'\n" },
      { path: 'src/shared/contract/probe.ts', text: "import { z } from 'zod'\n" }
    ],
    keeps: [
      {
        path: 'src/shared/schemas/probe.ts',
        text: "import { Type } from 'typebox'\nimport { LICENSE_KINDS } from '../contract/licensing'\n"
      }
    ]
  },
  'renderer-over-http': {
    breaks: [
      {
        path: 'src/renderer/src/stores/probe.ts',
        text: "import { createLicenseRepository } from '../../../core/licensing/license-repository'\n"
      },
      {
        path: 'src/renderer/src/screens/probe.tsx',
        text: "import type { ServerOptions } from '../../../server/server-options'\n"
      }
    ],
    keeps: [
      {
        path: 'src/renderer/src/api/probe.ts',
        text: "import type { Static } from 'typebox'\nimport type { LicenseSchema } from '../../../shared/schemas/commerce'\n"
      }
    ]
  }
}

describe('the layer rules (docs/architecture.md)', () => {
  it('hold for every file in src', () => {
    const files = sourceFiles(root)
    // The walk really reached every layer (an empty list would pass anything).
    for (const folder of ['src/core/', 'src/server/routes/', 'src/shared/', 'src/renderer/src/']) {
      expect(files.some((file) => file.path.startsWith(folder))).toBe(true)
    }
    expect(violationsOf(files)).toEqual([])
  })

  describe.each(Object.keys(RULES) as RuleName[])('%s', (rule) => {
    it.each(FIXTURES[rule].breaks.map((file) => [file.text.trim(), file]))('fails on %s', (_text, file) => {
      expect(violationsOf([file]).map((violation) => violation.rule)).toContain(rule)
    })

    it('passes its conforming twins', () => {
      expect(violationsOf(FIXTURES[rule].keeps)).toEqual([])
    })
  })

  it('fails when a real file of the tree gets a violating import (a probe on the tree, not a fixture)', () => {
    const files = sourceFiles(root)
    const service = files.find((file) => file.path === 'src/core/licensing/licensing-service.ts')
    expect(service).toBeDefined()
    const probed = files.map((file) =>
      file === service ? { ...file, text: `import type { FastifyInstance } from 'fastify'\n${file.text}` } : file
    )
    expect(violationsOf(probed)).toEqual([
      { rule: 'core-has-no-transport', file: 'src/core/licensing/licensing-service.ts', detail: 'fastify' }
    ])
  })

  it('reads static, type-only, re-exported and dynamic imports', () => {
    const file: SourceFile = {
      path: 'src/core/x/probe.ts',
      text: "import a from './a'\nimport type { B } from '../b'\nexport * from 'c'\nconst d = await import('./d')\n"
    }
    expect(importsOf(file)).toEqual([
      { specifier: './a', resolved: 'src/core/x/a' },
      { specifier: '../b', resolved: 'src/core/b' },
      { specifier: 'c', resolved: null },
      { specifier: './d', resolved: 'src/core/x/d' }
    ])
  })
})
