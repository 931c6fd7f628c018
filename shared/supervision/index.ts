export { restartDelay, type RestartPolicy } from './restart.js';
