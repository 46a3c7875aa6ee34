// Lint: typescript-eslint's recommended rules everywhere, React's hooks rules in the renderer.
// Formatting is Prettier's job (npm run format); `npm run lint` checks both.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', '.tmp/', 'bench/results/', 'examples/native-client/build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // An unused name is a mistake, unless it says it is on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }]
    }
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
