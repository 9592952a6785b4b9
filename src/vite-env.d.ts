/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_UPSTREAM_BASE?: string;
  readonly VITE_REST_BASE?: string;
  readonly VITE_HELP_GUIDE_URL?: string;
  readonly VITE_HELP_FAQ_URL?: string;
  readonly VITE_TEMPLATE_PAGES?: string;
}
