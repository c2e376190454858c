import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  FIELD_TYPES,
  FINISHED_SIGNER_STATUSES,
  IMAGE_FIELD_TYPES,
  INPUT_FIELD_TYPES,
  isEventType,
  isFieldType,
  isImageFieldType,
  isOptionFieldType,
  OPEN_REQUEST_STATUSES,
  OPTION_FIELD_TYPES,
  REQUEST_STATUSES,
  SIGNER_STATUSES,
  SOURCES,
  USER_ROLES,
} from '../src/index.ts';

describe('field types', () => {
  it('lists the fourteen types a template field has in responses (spec: Template field `type`)', () => {
    expect([...FIELD_TYPES].sort()).toEqual(
      [
        'text',
        'signature',
        'initials',
        'date',
        'number',
        'checkbox',
        'radio',
        'select',
        'multiple',
        'image',
        'file',
        'phone',
        'stamp',
        'cells',
      ].sort(),
    );
    expect(new Set(FIELD_TYPES).size).toBe(FIELD_TYPES.length);
  });

  it('takes every type but cells in a field definition (spec: Field definition `type`)', () => {
    expect(INPUT_FIELD_TYPES).toEqual(FIELD_TYPES.filter((t) => t !== 'cells'));
    expect(INPUT_FIELD_TYPES).not.toContain('cells');
  });

  it('needs options for select, radio and multiple (spec: Field definition `options`)', () => {
    expect(OPTION_FIELD_TYPES).toEqual(['select', 'radio', 'multiple']);
    expect(isOptionFieldType('radio')).toBe(true);
    expect(isOptionFieldType('text')).toBe(false);
  });

  it('holds pictures in signature, initials, image and stamp fields', () => {
    expect(IMAGE_FIELD_TYPES).toEqual(['signature', 'initials', 'image', 'stamp']);
    expect(isImageFieldType('stamp')).toBe(true);
    expect(isImageFieldType('file')).toBe(false);
  });

  it('recognises a field type by its exact spelling', () => {
    expect(isFieldType('checkbox')).toBe(true);
    expect(isFieldType('Checkbox')).toBe(false);
    expect(isFieldType('toString')).toBe(false);
  });
});

describe('event types', () => {
  it("lists the eleven types of the spec's Events table in its order", () => {
    expect(EVENT_TYPES).toEqual([
      'signature_request.created',
      'signature_request.completed',
      'signature_request.canceled',
      'signer.viewed',
      'signer.started',
      'signer.signed',
      'signer.declined',
      'template.created',
      'template.updated',
      'template.archived',
      'webhook.test',
    ]);
    expect(isEventType('signer.viewed')).toBe(true);
    expect(isEventType('signer.opened')).toBe(false);
  });
});

describe('statuses, roles and sources', () => {
  it('lists the statuses of a signature request and counts sent and in_progress as open (spec: `status=open`)', () => {
    expect(REQUEST_STATUSES).toEqual(['sent', 'in_progress', 'completed', 'declined', 'expired', 'canceled']);
    expect(OPEN_REQUEST_STATUSES).toEqual(['sent', 'in_progress']);
  });

  it('lists the statuses of a signer, signed and declined being final (spec: Signer `status`)', () => {
    expect(SIGNER_STATUSES).toEqual(['waiting', 'ready', 'sent', 'viewed', 'signed', 'declined']);
    expect(FINISHED_SIGNER_STATUSES).toEqual(['signed', 'declined']);
  });

  it('has the three user roles of `esign user create --role` (operations.md)', () => {
    expect(USER_ROLES).toEqual(['admin', 'member', 'viewer']);
  });

  it("has the spec's record sources, cli for the operator command line and web for signed-in pages", () => {
    expect(SOURCES).toEqual(['api', 'mcp', 'invite', 'link', 'bulk', 'embed', 'cli', 'web']);
  });
});
