// Lint: typescript-eslint's recommended rules everywhere, its type-checked ones on the TypeScript
// sources (they read the types through the two tsconfigs), React's hooks rules in the renderer.
// Formatting is Prettier's job (npm run format); `npm run lint` checks both.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', '.tmp/', 'bench/results/', 'examples/native-client/build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      // An unused name is a mistake, unless it says it is on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
      ],
      // A union that grows a member must not fall through a switch unnoticed; a `default` that
      // answers for the rest on purpose is accepted.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `return promise` inside try/catch skips the catch and the finally: await it there.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],

      // Left off, because what they report is not a defect here:
      // - the no-unsafe-* family reports every read of an `any`; `any` is only written with a reason
      //   (the OpenAPI document edited by path, JSON answers in tests), so each finding restates it.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // - require-await: Fastify hooks and plugins are async functions by contract (the other form
      //   takes a `done` callback), with or without an await inside; so are the test fakes of
      //   promise-returning Electron APIs.
      '@typescript-eslint/require-await': 'off',
      // - unbound-method: zustand actions and the narrowed dependency interfaces are declared with
      //   method syntax but are arrow functions or plain closures that never read `this`.
      '@typescript-eslint/unbound-method': 'off',
      // - no-base-to-string: flags String(unknown) where the value is a scalar by the contract
      //   (an error code, an id); an object there is already a bug the message shows as such.
      '@typescript-eslint/no-base-to-string': 'off'
    }
  },
  {
    // Scripts, the bench's .mjs and this file are in no tsconfig; the typed-client flow is type-checked
    // against its generated ./openapi.d.ts only when test/api/typed-client.test.ts writes it.
    files: ['**/*.{js,mjs,cjs}', 'test/typed-client/**'],
    ...tseslint.configs.disableTypeChecked
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'test/unit/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs['recommended-latest'].rules, 'react-hooks/exhaustive-deps': 'error' }
  },
  {
    // Functions these hand to page.evaluate run in the browser.
    files: ['test/e2e/**/*.ts', 'bench/lib/phase-ui.mjs'],
    languageOptions: { globals: { ...globals.browser } }
  },
  {
    // Tests and the bench read JSON answers of every shape; typing each one would test the types, not the server.
    files: ['test/**/*.ts', 'bench/**/*.{ts,mjs}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' }
  }
)
