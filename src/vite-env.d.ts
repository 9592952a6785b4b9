/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_UPSTREAM_BASE?: string;
  readonly VITE_REST_BASE?: string;
}
