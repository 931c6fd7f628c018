export { purposeKey } from './keys.js';
