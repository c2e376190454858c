import { describe, expectTypeOf, it } from 'vitest';
import type {
  EsignFormElement,
  EsignFormEventMap,
  FieldCompletedDetail,
  HostMessage,
  HostMessageType,
} from '../src/index.ts';
import type { EsignFormProps } from '../src/react.ts';

// Type tests of the event map (issue 48.3: typed events): checked by `pnpm run typecheck`
// (tsconfig.node.json includes this file); a wrong detail type fails the type check, not the run.

describe('the event map is typed (issue 48.3)', () => {
  it('each esign:* event carries its message type', () => {
    expectTypeOf<EsignFormEventMap['esign:loaded']['detail']['status']>().toEqualTypeOf<
      'ready' | 'code_required' | 'closed'
    >();
    expectTypeOf<EsignFormEventMap['esign:field-completed']['detail']>().toExtend<FieldCompletedDetail>();
    expectTypeOf<
      EsignFormEventMap['esign:signed']['detail']['signature_request_id']
    >().toEqualTypeOf<number>();
    expectTypeOf<EsignFormEventMap['esign:declined']['detail']['type']>().toEqualTypeOf<'declined'>();
    expectTypeOf<EsignFormEventMap['esign:error']['detail']>().toExtend<{ code: string; message: string }>();
    expectTypeOf<HostMessageType>().toEqualTypeOf<
      'loaded' | 'field-completed' | 'signed' | 'declined' | 'error' | 'resize'
    >();
  });

  it('addEventListener on the element knows the detail; querySelector knows the element', () => {
    const use = (form: EsignFormElement) => {
      form.addEventListener('esign:signed', (e) => {
        expectTypeOf(e.detail.signature_request_id).toEqualTypeOf<number>();
        // @ts-expect-error: a signed message has no status
        void e.detail.status;
      });
      form.addEventListener('esign:field-completed', (e) => {
        expectTypeOf(e.detail.field.name).toEqualTypeOf<string>();
        expectTypeOf(e.detail.completed).toEqualTypeOf<number>();
      });
      // Other events still type-check as plain events.
      form.addEventListener('click', (e) => expectTypeOf(e).toExtend<Event>());
    };
    expectTypeOf(use).toBeFunction();
    const find = (d: Document) => d.querySelector('esign-form');
    expectTypeOf<ReturnType<typeof find>>().toEqualTypeOf<EsignFormElement | null>();
  });

  it('the React wrapper props take typed callbacks', () => {
    expectTypeOf<Parameters<NonNullable<EsignFormProps['onSigned']>>[0]>().toEqualTypeOf<
      HostMessage<'signed'>
    >();
    expectTypeOf<Parameters<NonNullable<EsignFormProps['onError']>>[0]['code']>().toEqualTypeOf<string>();
    expectTypeOf<EsignFormProps['signingUrl']>().toEqualTypeOf<string>();
    // @ts-expect-error: a loaded callback does not receive a signed message
    const wrong: EsignFormProps['onLoaded'] = (m: HostMessage<'signed'>) => m;
    void wrong;
  });
});
