/**
 * The import layers (docs/architecture.md, "Layers"), low to high:
 *   domain <- resource contracts <- providers <- views <- pages, routes, layout <- App.
 * A module imports its own layer and those below it, never above; nothing imports in a cycle (type-only
 * imports count: tsPreCompilationDeps). mocks/, server/, simulator/, bench/ and scripts/ take the domain
 * and the resource contracts only. `npm run lint` runs it.
 */
const DOMAIN = '^src/domain/';
const CONTRACTS = [
  '^src/resources/(types|model|schema|query|validation|configs)[.]ts$',
  '^src/resources/[^/]+/(config|calls|requests|levels|commandLog)[.]ts$',
  '^src/resources/i18n/',
];
// src/loading/ (components fetched in chunks of their own) sits with the providers: views and pages use it.
const PROVIDERS = ['^src/providers/', '^src/i18n/', '^src/loading/', '^src/config[.]ts$', '^src/ConsoleConfigContext[.]tsx$'];
const VIEWS = '^src/resources/';
const SHELL = '^src/(pages|routes|layout)/';
// Above them only src/App.tsx and src/main.tsx, which nothing below imports.
const OUTSIDE = '^(mocks|server|simulator|bench|scripts)/';
const SPEC = '[.]spec[.]tsx?$';

/** A rule that keeps `from` off everything of src/ except `allowed`. */
const onlyBelow = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: [SPEC] },
  to: { path: '^src/', pathNot: allowed },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle, type-only imports included: split the module or move what both need a layer down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    onlyBelow('domain-is-the-bottom', 'src/domain/ imports only src/domain/.', DOMAIN, [DOMAIN]),
    {
      name: 'domain-is-plain',
      comment: 'src/domain/ is plain TypeScript, zod and the common-password list (data): no React, no react-admin, no Node modules.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: [SPEC] },
      to: { dependencyTypes: ['npm', 'npm-dev', 'core'], pathNot: ['node_modules/zod/', 'node_modules/@zxcvbn-ts/'] },
    },
    onlyBelow('contracts-below-providers', 'Resource contracts import only the domain and other contracts.', CONTRACTS, [DOMAIN, ...CONTRACTS]),
    onlyBelow('providers-below-views', 'Providers import only providers, contracts and the domain.', PROVIDERS, [DOMAIN, ...CONTRACTS, ...PROVIDERS]),
    onlyBelow('views-below-pages', 'Views import no pages, routes, layout or App.', VIEWS, [DOMAIN, VIEWS, ...PROVIDERS]),
    onlyBelow('pages-below-app', 'Pages, routes and layout do not import App.tsx or main.tsx.', SHELL, [DOMAIN, VIEWS, ...PROVIDERS, SHELL]),
    {
      name: 'outside-takes-contracts-only',
      comment: 'mocks/, server/, simulator/, bench/ and scripts/ import the domain and resource contracts only.',
      severity: 'error',
      from: { path: OUTSIDE },
      to: { path: '^src/', pathNot: [DOMAIN, ...CONTRACTS] },
    },
    {
      name: 'console-is-self-contained',
      comment: 'The console imports no server, simulator, bench or test code (main.tsx starts the mocks in mock mode).',
      severity: 'error',
      from: { path: '^src/', pathNot: [SPEC, '^src/main[.]tsx$'] },
      to: { path: '^(server|simulator|bench|scripts|tests|mocks)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data|bench/tmp|mocks/public)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
