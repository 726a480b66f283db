// The drop-in's zod schemas, written as the official memory server writes them (same
// descriptions, same shapes) so tools/list advertises the same JSON Schemas field by field.
// One schema per tool input and output; the MCP façade converts them.
import { z } from 'zod';

export const entitySchema = z.object({
  name: z.string().describe('The name of the entity'),
  entityType: z.string().describe('The type of the entity'),
  observations: z
    .array(z.string())
    .describe('An array of observation contents associated with the entity'),
});

export const relationSchema = z.object({
  from: z.string().describe('The name of the entity where the relation starts'),
  to: z.string().describe('The name of the entity where the relation ends'),
  relationType: z.string().describe('The type of the relation'),
});

export const createEntitiesInput = z.object({ entities: z.array(entitySchema) });
export const createRelationsInput = z.object({ relations: z.array(relationSchema) });
export const addObservationsInput = z.object({
  observations: z.array(
    z.object({
      entityName: z.string().describe('The name of the entity to add the observations to'),
      contents: z.array(z.string()).describe('An array of observation contents to add'),
    }),
  ),
});
export const deleteEntitiesInput = z.object({
  entityNames: z.array(z.string()).describe('An array of entity names to delete'),
});
export const deleteObservationsInput = z.object({
  deletions: z.array(
    z.object({
      entityName: z.string().describe('The name of the entity containing the observations'),
      observations: z.array(z.string()).describe('An array of observations to delete'),
    }),
  ),
});
export const deleteRelationsInput = z.object({
  relations: z.array(relationSchema).describe('An array of relations to delete'),
});
export const readGraphInput = z.object({});
export const searchNodesInput = z.object({
  query: z
    .string()
    .describe('The search query to match against entity names, types, and observation content'),
});
export const openNodesInput = z.object({
  names: z.array(z.string()).describe('An array of entity names to retrieve'),
});

export const entitiesOutput = z.object({ entities: z.array(entitySchema) });
export const relationsOutput = z.object({ relations: z.array(relationSchema) });
export const observationsOutput = z.object({
  results: z.array(z.object({ entityName: z.string(), addedObservations: z.array(z.string()) })),
});
export const deletedOutput = z.object({ success: z.boolean(), message: z.string() });
export const graphOutput = z.object({
  entities: z.array(entitySchema),
  relations: z.array(relationSchema),
});
