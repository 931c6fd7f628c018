import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the api at /portal/ (api/portal/app-routes.ts): hashed files under assets/ are cached
// for a year, index.html never. No inline script or style anywhere: the page's CSP forbids them.
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
  },
});
