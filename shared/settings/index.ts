// Platform settings: sections administrators change at run time, one Postgres row each (platform_settings).
export { PlatformSettings, SettingsError, type SettingsSection } from './store.js';
