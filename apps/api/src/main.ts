import 'reflect-metadata';
import { runService } from '@storage/platform';
import { apiService } from './service';

/** The service alone in its process (a Kubernetes pod, `node dist/main.js`); `npm start` runs it with the others in one. */
void runService(apiService);
