import { useCallback, useEffect, useRef, useState } from 'react';
import { background } from '../../background.ts';
import { errorMessage, trpcClient } from '../../trpc.ts';
import type { EditorDoc } from './model.ts';
import { type EditorState, toSaveInput } from './operations.ts';

// Autosave: a change is saved once the person pauses (SAVE_DELAY_MS), as one templates.editorSave
// (one template.updated), never per keystroke or per pixel of a drag. The save names the version it
// edits; an answer `conflict` stops saving until the person picks theirs or the other version.

const SAVE_DELAY_MS = 800;

type SaveStatus = 'saved' | 'pending' | 'saving' | 'error' | 'conflict';

export interface Autosave {
  status: SaveStatus;
  error: string | null;
  /** The server's current template when a save met someone else's newer save. */
  conflict: EditorState | null;
  /** The latest answer of the server (page links, documents, version). */
  server: EditorState;
  /** Saves now (waits for a save under way), resolving once nothing is left unsaved. */
  flush: () => Promise<boolean>;
  /** Keep mine: save this document over the other version. */
  overwrite: () => void;
  /** The editor took the server's state (theirs, or after a document upload). */
  adopt: (state: EditorState, doc: EditorDoc) => void;
  /** The version the next save names. */
  version: () => number;
}

export function useAutosave(
  templateId: number,
  initial: EditorState,
  present: EditorDoc,
  initialDoc: EditorDoc,
): Autosave {
  const [status, setStatus] = useState<SaveStatus>('saved');
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<EditorState | null>(null);
  const [server, setServer] = useState(initial);
  const version = useRef(initial.version);
  const saved = useRef<EditorDoc>(initialDoc);
  const latest = useRef(present);
  latest.current = present;
  const running = useRef<Promise<boolean> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const blocked = useRef(false);
  const saveOnce = useCallback(async (): Promise<boolean> => {
    const doc = latest.current;
    if (doc === saved.current) return true;
    setStatus('saving');
    try {
      const answer = await trpcClient.templates.editorSave.mutate(
        toSaveInput(templateId, version.current, doc),
      );
      setServer(answer);
      if (answer.status === 'conflict') {
        blocked.current = true;
        setConflict(answer);
        setStatus('conflict');
        return false;
      }
      version.current = answer.version;
      saved.current = doc;
      setError(null);
      setStatus(latest.current === doc ? 'saved' : 'pending');
      return true;
    } catch (err) {
      setError(errorMessage(err));
      setStatus('error');
      return false;
    }
  }, [templateId]);
  const flush = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    if (blocked.current) return false;
    while (running.current) await running.current;
    if (latest.current === saved.current) return true;
    running.current = saveOnce();
    try {
      return await running.current;
    } finally {
      running.current = null;
    }
  }, [saveOnce]);
  useDebouncedSave(present, { saved, latest, blocked, timer }, flush, setStatus);
  useLeaveWarning(latest, saved);
  const overwrite = useCallback(() => {
    if (!conflict) return;
    version.current = conflict.version;
    blocked.current = false;
    setConflict(null);
    background(flush());
  }, [conflict, flush]);
  const adopt = useCallback((state: EditorState, doc: EditorDoc) => {
    version.current = state.version;
    saved.current = doc;
    blocked.current = false;
    setServer(state);
    setConflict(null);
    setError(null);
    setStatus('saved');
  }, []);
  const currentVersion = useCallback(() => version.current, []);
  // A change shows as unsaved in the very render that shows it (the save effect runs a moment later).
  const shown = status === 'saved' && present !== saved.current ? 'pending' : status;
  return { status: shown, error, conflict, server, flush, overwrite, adopt, version: currentVersion };
}

type Ref<T> = { current: T };

/** A change is saved SAVE_DELAY_MS after the last one; changes during a save go in the next. */
function useDebouncedSave(
  present: EditorDoc,
  refs: {
    saved: Ref<EditorDoc>;
    latest: Ref<EditorDoc>;
    blocked: Ref<boolean>;
    timer: Ref<ReturnType<typeof setTimeout> | undefined>;
  },
  flush: () => Promise<boolean>,
  setStatus: (fn: (s: SaveStatus) => SaveStatus) => void,
) {
  const { saved, latest, blocked, timer } = refs;
  useEffect(() => {
    if (present === saved.current || blocked.current) return;
    setStatus((s) => (s === 'saving' ? s : 'pending'));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      background(
        flush().then(async (ok) => {
          if (ok && latest.current !== saved.current) await flush();
        }),
      );
    }, SAVE_DELAY_MS);
  }, [present, flush, saved, latest, blocked, timer, setStatus]);
  useEffect(() => () => clearTimeout(timer.current), [timer]);
}

/** The browser asks before leaving the page with unsaved changes. */
function useLeaveWarning(latest: Ref<EditorDoc>, saved: Ref<EditorDoc>) {
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (latest.current !== saved.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [latest, saved]);
}
