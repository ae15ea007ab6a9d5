export { commonConfigSchema, ConfigError, loadConfig, portSchema, type CommonConfig } from './config';
export { DatabaseModule, databaseReadiness } from './database';
export { HealthController, HealthModule, READINESS_CHECKS, type ReadinessCheck } from './health';
export { loggingModule, REDACTED_PATHS, requestId, type LoggingOptions } from './logging';
export { limitJsonDepth, MAX_JSON_DEPTH } from './json-depth';
export { refuseNulCharacters } from './nul-characters';
export { runService, type ServiceDefinition } from './service';
export {
  createValidationPipe,
  fieldErrors,
  InvalidRequestException,
  PROBLEM_CONTENT_TYPE,
  problemFor,
  ProblemDetailsFilter,
  type FieldError,
  type ProblemDetails,
} from './problem-details';
