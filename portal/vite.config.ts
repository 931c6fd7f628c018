import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the api at /portal/ (api/portal/app-routes.ts): hashed files under assets/ are cached
// for a year, index.html never. No inline script or style anywhere: the page's CSP forbids them.
// Three pages: the app (index.html), the public viewer of shared assets (view.html, its own small
// entry, served at /portal/view/<token> by api/portal/viewer.ts) and the JSX runtime of the
// sandboxed frame a JSX asset is shown in (jsx-frame.html, api/portal/asset-frame.ts).
export default defineConfig({
  base: '/portal/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        view: resolve(import.meta.dirname, 'view.html'),
        'jsx-frame': resolve(import.meta.dirname, 'jsx-frame.html'),
      },
    },
  },
});
