// Worker threads running one of our modules, from the compiled build or from sources under tsx.
export { startModuleThread } from './start.js';
