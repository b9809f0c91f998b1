import type * as S3Sdk from "@aws-sdk/client-s3";
import { type FileStore, checkKey, contentTypeOfKey, isSafeKey } from "./store.ts";

export interface S3Settings {
  bucket: string;
  region: string;
  /** Another S3-compatible service (MinIO, R2, Spaces, the tests' local server); AWS itself when unset. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key`: most self-hosted services need it. */
  forcePathStyle: boolean;
}

/**
 * Files in an S3-compatible bucket, for a shop on several machines. The SDK
 * is loaded on first use, so a shop storing on disk never loads it. Objects
 * are written with their content type and a year-long immutable cache
 * control, so a CDN in front of the bucket may serve them directly too.
 */
export function s3FileStore(settings: S3Settings): FileStore & { close(): void } {
  let client: Promise<{ s3: S3Sdk.S3Client; sdk: typeof S3Sdk }> | undefined;
  const open = () =>
    (client ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
        maxAttempts: 3,
      }),
    })));
  return {
    kind: "s3",
    async put(key, bytes, contentType) {
      checkKey(key, contentType);
      const { s3, sdk } = await open();
      await s3.send(
        new sdk.PutObjectCommand({
          Bucket: settings.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
          CacheControl: "public, max-age=31536000, immutable",
        }),
      );
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      const { s3, sdk } = await open();
      try {
        const res = await s3.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: key }));
        if (!res.Body) return null;
        const bytes = Buffer.from(await res.Body.transformToByteArray());
        // The type is the key's, whatever the bucket says: a file put there by other means is not served as HTML.
        return { bytes, contentType: contentTypeOfKey(key)! };
      } catch (err) {
        const name = (err as { name?: string }).name;
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (name === "NoSuchKey" || name === "NotFound" || status === 404) return null;
        throw err;
      }
    },
    async delete(key) {
      checkKey(key);
      const { s3, sdk } = await open();
      await s3.send(new sdk.DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
    },
    close() {
      void client?.then(({ s3 }) => s3.destroy());
    },
  };
}
