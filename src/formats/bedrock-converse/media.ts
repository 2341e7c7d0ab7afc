import type { IRFilePart, IRImagePart } from "../../ir/types";
import { parseDataUrl } from "../data-url";

/**
 * Images and documents as Converse takes them: bytes (base64 in the JSON) or an S3 location, with
 * a format name instead of a media type
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html,
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html).
 * A web URL is no source Converse knows: the gateway fetches those before encoding.
 */

type Block = Record<string, unknown>;

const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

/** The format by a file name's extension (an S3 object's key), for sources that carry no media type. */
function formatOfName(name: string, formats: Readonly<Record<string, string>>): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (!extension) return undefined;
  const known = new Set(Object.values(formats));
  if (known.has(extension)) return extension;
  return extension === "jpg" ? "jpeg" : extension === "markdown" ? "md" : undefined;
}

const isS3 = (url: string) => url.startsWith("s3://");

export function imageBlock(part: IRImagePart): Block | undefined {
  const { source } = part;
  const inline = source.kind === "base64" ? { mediaType: source.mediaType, data: source.data } : parseDataUrl(source.url);
  if (inline) return { image: { format: IMAGE_FORMATS[inline.mediaType.toLowerCase()] ?? "png", source: { bytes: inline.data } } };
  if (source.kind === "url" && isS3(source.url))
    return { image: { format: formatOfName(source.url, IMAGE_FORMATS) ?? "png", source: { s3Location: { uri: source.url } } } };
  return undefined;
}

/** A document's name may hold only letters, digits, single spaces, hyphens, parentheses and square brackets. */
function documentName(filename: string | undefined): string {
  const stem = (filename ?? "").replace(/\.[^.]*$/, "");
  const name = stem
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return name === "" ? "document" : name.slice(0, 200);
}

export function documentBlock(part: IRFilePart): Block | undefined {
  const name = documentName(part.filename);
  if (part.data !== undefined) {
    const type = (part.mediaType ?? "application/pdf").toLowerCase();
    const format = DOCUMENT_FORMATS[type] ?? (type.startsWith("text/") ? "txt" : "pdf");
    return { document: { format, name, source: { bytes: part.data } } };
  }
  const inline = part.url === undefined ? undefined : parseDataUrl(part.url);
  if (inline) return documentBlock({ ...part, url: undefined, data: inline.data, mediaType: inline.mediaType });
  if (part.url !== undefined && isS3(part.url)) {
    return { document: { format: formatOfName(part.url, DOCUMENT_FORMATS) ?? "pdf", name, source: { s3Location: { uri: part.url } } } };
  }
  return undefined;
}
