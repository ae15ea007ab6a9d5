import { NotFoundException } from '@nestjs/common';

/** The one 404 wording, so a missing record and a record of another portfolio read the same. */
export function notFound(what: string, uuid: string): NotFoundException {
  return new NotFoundException(`${what} ${uuid} not found.`);
}
