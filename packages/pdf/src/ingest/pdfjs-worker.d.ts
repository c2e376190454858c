// The pdf.js worker bundle has no type declarations; importing it registers
// `globalThis.pdfjsWorker` so pdf.js runs its worker code on the main thread in Node.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
