export { commonConfigSchema, ConfigError, loadConfig, loadPorts, portSchema, type CommonConfig } from './config';
export { DatabaseModule, databaseReadiness } from './database';
export { HealthController, HealthModule, READINESS_CHECKS, type ReadinessCheck } from './health';
export { asService, loggingModule, REDACTED_PATHS, redactUrl, requestId, serviceAtWorkNow, setLogDestination, type LoggingOptions } from './logging';
export { AcceptsFormBody, acceptJsonBodies } from './body-media-types';
export { createHttpAdapter, MAX_PATH_PARAMETER_LENGTH } from './http-adapter';
export { limitJsonDepth, MAX_JSON_DEPTH } from './json-depth';
export { answerMethodNotAllowed } from './method-not-allowed';
export { refuseNulCharacters } from './nul-characters';
export { bootService, runService, type BootedService, type BootOptions, type ServiceDefinition } from './service';
export { ServiceStartup } from './startup';
export { shorten } from './shorten';
export {
  createValidationPipe,
  FIELD_ERROR_DETAILS,
  fieldErrors,
  InvalidRequestException,
  PROBLEM_CONTENT_TYPE,
  problemFor,
  ProblemDetailsFilter,
  TypedProblemException,
  type FieldError,
  type ProblemDetails,
} from './problem-details';
