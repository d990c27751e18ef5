import {useCallback, useEffect, useRef, useState} from 'react';
import {toChatError, type ChatError} from './errors';
import {DEFAULT_LABELS, type Labels} from './labels';
import {answerFromResponse, buildRequest, localId, messagesFromHistory, userMessage} from './messages';
import type {ChatMessage, SendOptions} from './messages';
import {safeStorage} from './storage';
import {ApiError, isAbortError, type Transport} from './transport';
import type {Rating} from './types';

/** One status for the whole chat, as in the AI SDK's useChat. */
export type ChatStatus = 'ready' | 'submitted' | 'streaming' | 'error';

/** Options of useChat: the API client and where the conversation id is remembered. */
export interface UseChatOptions {
  transport: Transport;
  storageKey?: string;
  /** The reader's language for error messages (English by default). */
  labels?: Labels;
}

/** What useChat returns. */
export interface UseChatResult {
  messages: ChatMessage[];
  status: ChatStatus;
  error: ChatError | null;
  conversationId: string | null;
  send: (question: string, options?: SendOptions) => void;
  stop: () => void;
  regenerate: () => void;
  clear: () => void;
  rate: (messageId: string, rating: Rating) => Promise<void>;
}

/** Chat state over the bookchat API: streams answers, remembers the conversation across reloads. */
export function useChat({transport, storageKey = 'bookchat:conversation', labels = DEFAULT_LABELS}: UseChatOptions): UseChatResult {
  const labelsRef = useRef(labels);
  labelsRef.current = labels;
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [status, setStatus] = useState<ChatStatus>('ready');
  const [error, setError] = useState<ChatError | null>(null);
  const [conversationId, setConversationIdState] = useState<string | null>(null);
  const conversationRef = useRef<string | null>(null);
  const controllerRef = useRef<AbortController | null>(null);
  const lastRef = useRef<{question: string; options: SendOptions} | null>(null);

  const setConversationId = useCallback(
    (id: string | null) => {
      conversationRef.current = id;
      setConversationIdState(id);
      safeStorage.set(storageKey, id);
    },
    [storageKey],
  );

  // Reload the remembered conversation once; a 404 means the server forgot it: start fresh.
  useEffect(() => {
    const saved = safeStorage.get(storageKey);
    if (!saved) return;
    conversationRef.current = saved;
    setConversationIdState(saved);
    const controller = new AbortController();
    transport.getConversation(saved, controller.signal).then(
      (conversation) => setMessages((current) => (current.length ? current : messagesFromHistory(conversation.messages))),
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 404 && conversationRef.current === saved) setConversationId(null);
      },
    );
    return () => controller.abort();
  }, [transport, storageKey, setConversationId]);

  const patchAnswer = (id: string, patch: Partial<ChatMessage>) =>
    setMessages((list) => list.map((m) => (m.id === id ? {...m, ...patch} : m)));

  const run = useCallback(
    async (question: string, options: SendOptions, answerId: string, controller: AbortController) => {
      const request = buildRequest(question, options);
      for (let attempt = 0; ; attempt++) {
        const sentConversation = conversationRef.current;
        if (sentConversation) request.conversation_id = sentConversation;
        else delete request.conversation_id;
        try {
          const response = await transport.streamQuery(
            request,
            {
              onMeta: (meta) => {
                setStatus('streaming');
                patchAnswer(answerId, {status: meta.status, citations: meta.citations, messageId: meta.message_id});
              },
              onDelta: (text) => {
                setStatus('streaming');
                setMessages((list) => list.map((m) => (m.id === answerId ? {...m, text: m.text + text} : m)));
              },
            },
            controller.signal,
          );
          if (controller.signal.aborted) return;
          setConversationId(response.conversation_id);
          setMessages((list) => list.map((m) => (m.id === answerId ? answerFromResponse(answerId, response) : m)));
          setStatus('ready');
          return;
        } catch (e) {
          if (isAbortError(e) || controller.signal.aborted) return;
          // The server lost our conversation (e.g. it was reset): continue in a new one, once.
          const lostConversation =
            e instanceof ApiError && e.status === 404 && sentConversation !== null && attempt === 0 &&
            (request.mode !== 'chapter' || /conversation/i.test(String(e.detail)));
          if (lostConversation) {
            setConversationId(null);
            continue;
          }
          setMessages((list) => list.filter((m) => m.id !== answerId || m.text !== ''));
          patchAnswer(answerId, {complete: true, stopped: true});
          setError(toChatError(e, labelsRef.current));
          setStatus('error');
          return;
        }
      }
    },
    [transport, setConversationId],
  );

  const send = useCallback(
    (question: string, options: SendOptions = {}) => {
      const text = question.trim();
      if (!text) return;
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      lastRef.current = {question: text, options};
      const answerId = localId('a');
      const placeholder: ChatMessage = {id: answerId, role: 'assistant', text: '', mode: options.mode ?? 'book', citations: [], complete: false};
      setMessages((list) => [...list.filter((m) => m.complete), userMessage(text, options), placeholder]);
      setError(null);
      setStatus('submitted');
      void run(text, options, answerId, controller);
    },
    [run],
  );

  const stop = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
    setMessages((list) =>
      list
        .filter((m) => m.complete || m.text !== '')
        .map((m) => (m.complete ? m : {...m, complete: true, stopped: true})),
    );
    setStatus((s) => (s === 'error' ? s : 'ready'));
  }, []);

  const regenerate = useCallback(() => {
    const last = lastRef.current;
    if (!last) return;
    // Drop the last exchange so the retried one replaces it instead of repeating the question.
    setMessages((list) => {
      const lastUser = list.map((m) => m.role).lastIndexOf('user');
      return lastUser === -1 ? list : list.slice(0, lastUser);
    });
    send(last.question, last.options);
  }, [send]);

  const clear = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
    lastRef.current = null;
    setConversationId(null);
    setMessages([]);
    setError(null);
    setStatus('ready');
  }, [setConversationId]);

  const rate = useCallback(
    async (messageId: string, rating: Rating) => {
      const find = (list: ChatMessage[]) => list.find((m) => m.messageId === messageId);
      let previous: Rating | null | undefined;
      setMessages((list) => {
        previous = find(list)?.rating;
        return list.map((m) => (m.messageId === messageId ? {...m, rating} : m));
      });
      try {
        await transport.feedback(messageId, rating);
      } catch (e) {
        setMessages((list) => list.map((m) => (m.messageId === messageId ? {...m, rating: previous ?? null} : m)));
        throw e;
      }
    },
    [transport],
  );

  useEffect(() => () => controllerRef.current?.abort(), []);

  return {messages, status, error, conversationId, send, stop, regenerate, clear, rate};
}
